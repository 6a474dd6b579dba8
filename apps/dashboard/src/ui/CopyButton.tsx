/** Copies a text to the clipboard and says so. */
import { useState } from "react"
import { useI18n } from "../i18n/i18n"

export const CopyButton = ({ text }: { readonly text: string }) => {
  const { t } = useI18n()
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    await navigator.clipboard?.writeText(text).catch(() => undefined)
    setCopied(true)
  }
  return <button type="button" onClick={copy} aria-live="polite">{copied ? t("copied") : t("copy")}</button>
}
