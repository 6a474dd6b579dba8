/** The user's profile and security: names, locale and picture; their settings in this account; password; e-mail; two-factor. */
import { useI18n } from "../i18n/i18n"
import { EmailForm } from "./EmailForm"
import { PasswordForm } from "./PasswordForm"
import { PreferencesForm } from "./PreferencesForm"
import { ProfileForm } from "./ProfileForm"
import { TwoFactorSection } from "./TwoFactorSection"

export const ProfilePage = () => {
  const { t } = useI18n()
  return (
    <section>
      <h1>{t("profile")}</h1>
      <ProfileForm />
      <PreferencesForm />
      <h2>{t("security")}</h2>
      <PasswordForm />
      <EmailForm />
      <TwoFactorSection />
    </section>
  )
}
