/** Checkboxes over the account's teams, for an invitation's or a member's teams. */
import { useI18n } from "../i18n/i18n"

export interface TeamChoice {
  readonly id: number
  readonly name: string
}

export const TeamPicker = ({ teams, value, onChange, error }: {
  readonly teams: ReadonlyArray<TeamChoice>
  readonly value: ReadonlyArray<number>
  readonly onChange: (teamIds: ReadonlyArray<number>) => void
  readonly error?: string | undefined
}) => {
  const { t } = useI18n()
  const toggle = (id: number) => onChange(value.includes(id) ? value.filter((v) => v !== id) : [...value, id])
  return (
    <fieldset className="team-picker">
      <legend>{t("teams")}</legend>
      {teams.map((team) => (
        <label key={team.id} className="check">
          <input type="checkbox" checked={value.includes(team.id)} onChange={() => toggle(team.id)} /> {team.name}
        </label>
      ))}
      {error && <p className="field-error" role="alert">{error}</p>}
    </fieldset>
  )
}

/** The first message the API gave for `team_ids` or one of its entries. */
export const teamIdsError = (errors: Readonly<Record<string, ReadonlyArray<string>>> | undefined): string | undefined =>
  Object.entries(errors ?? {}).find(([key]) => key === "team_ids" || key.startsWith("team_ids."))?.[1][0]
