/** A secret the API shows only once (a webhook's secret, a new token), with a copy button. */
import { CopyButton } from "./CopyButton"

export const Secret = ({ label, note, value }: { readonly label: string; readonly note: string; readonly value: string }) => (
  <div className="secret" role="status">
    <p>{note}</p>
    <p>
      <strong>{label}: </strong>
      <code data-testid="secret">{value}</code> <CopyButton text={value} />
    </p>
  </div>
)
