/**
 * A message's media: an image or sticker as a thumbnail that opens full size, anything else as a
 * download link. Both load from Wasl's attachment URL with the session cookie (members of the
 * account only); until the worker has fetched the file it answers 404, shown as not there yet.
 */
import { useState } from "react"
import { useI18n } from "../i18n/i18n"
import { namedType } from "./preview"
import type { Attachment } from "./wire"

const THUMBNAILS = new Set(["image", "sticker"])

const sizeText = (bytes: number | null): string => (bytes === null ? "" : bytes < 1024 ? `${bytes} B` : `${Math.ceil(bytes / 1024)} KB`)

export const AttachmentView = ({ attachment }: { readonly attachment: Attachment }) => {
  const { t } = useI18n()
  const [missing, setMissing] = useState(false)
  const name = attachment.filename || attachment.caption || t(`msg_${namedType(attachment.type)}`)
  if (THUMBNAILS.has(attachment.type) && !missing) {
    return (
      <a className="attachment" href={attachment.url} target="_blank" rel="noopener">
        <img className="thumbnail" src={attachment.url} alt={name} loading="lazy" onError={() => setMissing(true)} />
      </a>
    )
  }
  return (
    <p className="attachment">
      {missing ? <span>{name}: {t("attachmentMissing")}</span> : (
        <a href={attachment.url} download={attachment.filename ?? true}>
          {t("download", { name })} <small dir="ltr">{[attachment.mime_type, sizeText(attachment.size)].filter(Boolean).join(", ")}</small>
        </a>
      )}
    </p>
  )
}
