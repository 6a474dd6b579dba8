/** Switches between English and Arabic. */
import { useI18n } from "../i18n/i18n"

export const LanguageSwitch = () => {
  const { language, setLanguage, t } = useI18n()
  const other = language === "ar" ? "en" : "ar"
  return (
    <button type="button" lang={other} title={t("languageName")} onClick={() => setLanguage(other)}>
      {t("language")}
    </button>
  )
}
