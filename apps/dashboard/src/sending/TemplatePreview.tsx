/** A template as its recipient will read it: header, body and footer with the example values filled in, and its buttons. */
import { useI18n } from "../i18n/i18n"
import { fillVariables } from "./variables"

export interface PreviewButton {
  readonly type: string
  readonly text: string
}

export const TemplatePreview = ({ header, body, footer, buttons, examples }: {
  readonly header: string
  readonly body: string
  readonly footer: string
  readonly buttons: ReadonlyArray<PreviewButton>
  readonly examples: { readonly header: ReadonlyArray<string>; readonly body: ReadonlyArray<string> }
}) => {
  const { t } = useI18n()
  return (
    <section className="template-preview" aria-label={t("preview")}>
      <h2>{t("preview")}</h2>
      <div className="bubble outbound" data-testid="preview">
        {header !== "" && <p className="preview-header"><strong>{fillVariables(header, examples.header)}</strong></p>}
        <p className="bubble-text preview-body">{fillVariables(body, examples.body)}</p>
        {footer !== "" && <p className="preview-footer"><small>{footer}</small></p>}
        {buttons.filter((button) => button.text !== "").map((button, index) => (
          <span className="preview-button" key={index}>{button.text}</span>
        ))}
      </div>
    </section>
  )
}
