/**
 * A team's permissions as checkboxes: a grid of kinds by action for the records, then one group
 * per area. A permission the signed-in member does not hold cannot be granted (the API would
 * answer 403), so its box is off limits unless the team has it already, to take it away.
 */
import { useI18n } from "../i18n/i18n"
import type { MessageKey } from "../i18n/messages"
import { KINDS } from "../records/kinds"
import { kindPermission, type Permission, RECORD_ACTIONS, usePermission } from "../session/permissions"
import { AREAS } from "./permissionAreas"

export const PermissionChecklist = ({ value, onChange, error }: {
  readonly value: ReadonlyArray<Permission>
  readonly onChange: (permissions: ReadonlyArray<Permission>) => void
  readonly error?: string | undefined
}) => {
  const { t } = useI18n()
  const may = usePermission()
  const held = new Set(value)
  const toggle = (permission: Permission) =>
    onChange(held.has(permission) ? value.filter((p) => p !== permission) : [...value, permission])
  const box = (permission: Permission, label: string) => (
    <input
      type="checkbox"
      aria-label={label}
      checked={held.has(permission)}
      disabled={!held.has(permission) && !may(permission)}
      onChange={() => toggle(permission)}
    />
  )
  return (
    <div className="permissions">
      <p><small>{t("grantOwnOnly")}</small></p>
      {error && <p className="field-error" role="alert">{error}</p>}
      <fieldset>
        <legend>{t("area_records")}</legend>
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <td />
                {RECORD_ACTIONS.map((action) => <th scope="col" key={action}>{t(`action_${action}`)}</th>)}
              </tr>
            </thead>
            <tbody>
              {KINDS.map((kind) => (
                <tr key={kind}>
                  <th scope="row">{t(`kind_${kind}`)}</th>
                  {RECORD_ACTIONS.map((action) => (
                    <td key={action}>{box(kindPermission(kind, action), `${t(`kind_${kind}`)}: ${t(`action_${action}`)}`)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </fieldset>
      {AREAS.map(({ area, permissions }) => (
        <fieldset key={area}>
          <legend>{t(area)}</legend>
          {permissions.map((permission) => (
            <label key={permission} className="check">
              {box(permission, t(`perm_${permission}` as MessageKey))}
              <span>{t(`perm_${permission}` as MessageKey)}</span> <small dir="ltr">{permission}</small>
            </label>
          ))}
        </fieldset>
      ))}
    </div>
  )
}
