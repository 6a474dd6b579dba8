/**
 * A QR code of a text (an `otpauth://` URI for an authenticator app), drawn as SVG. The QR
 * package is loaded only when a code is first shown, so it weighs nothing on the other pages.
 */
import { useEffect, useState } from "react"
import { useI18n } from "../i18n/i18n"

export const QrCode = ({ text, label }: { readonly text: string; readonly label: string }) => {
  const { t } = useI18n()
  const [src, setSrc] = useState<string | undefined>()
  useEffect(() => {
    let current = true
    void import("qrcode")
      .then((qrcode) => qrcode.toString(text, { type: "svg", margin: 2, errorCorrectionLevel: "M" }))
      .then((svg) => {
        if (current) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`)
      })
    return () => {
      current = false
    }
  }, [text])
  return src === undefined ? <p>{t("loading")}</p> : <img className="qr" src={src} alt={label} width={200} height={200} data-testid="qr-code" />
}
