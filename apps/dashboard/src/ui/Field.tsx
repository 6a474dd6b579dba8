/** A labelled form control with the API's message for it, tied together for screen readers. */
import { useId, type ReactElement, cloneElement } from "react"

export const Field = ({ label, error, hint, children }: {
  readonly label: string
  readonly error?: string | undefined
  readonly hint?: string | undefined
  readonly children: ReactElement<Record<string, unknown>>
}) => {
  const id = useId()
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined
  return (
    <div className={error ? "field field-invalid" : "field"}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, "aria-invalid": error ? true : undefined, "aria-describedby": described })}
      {hint && <small id={`${id}-hint`}>{hint}</small>}
      {error && <p className="field-error" id={`${id}-error`} role="alert">{error}</p>}
    </div>
  )
}
