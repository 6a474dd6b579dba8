/** A background job's status (import or export) as a badge, announced as it changes. */
import { useI18n } from "../i18n/i18n"

export type JobState = "queued" | "running" | "completed" | "failed" | "expired"

const TONE: Readonly<Record<JobState, string>> = { queued: "", running: "warn", completed: "ok", failed: "bad", expired: "bad" }

export const JobStatus = ({ state }: { readonly state: JobState | undefined }) => {
  const { t } = useI18n()
  return (
    <p role="status">
      {t("status")}: <span className={`badge ${state ? TONE[state] : ""}`}>{state ? t(`job_${state}`) : t("loading")}</span>
    </p>
  )
}
