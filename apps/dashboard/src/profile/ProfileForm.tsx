/** The user's names, locale and picture (`PUT /api/me`), with the API's message on each field. */
import { useState, type FormEvent } from "react"
import { api } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { useMe, useSession } from "../session/session"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"

export const ProfileForm = () => {
  const { t } = useI18n()
  const me = useMe()
  const { refresh } = useSession()
  const [firstname, setFirstname] = useState(me.firstname)
  const [lastname, setLastname] = useState(me.lastname)
  const [locale, setLocale] = useState(me.locale)
  const [image, setImage] = useState(me.image ?? "")
  const [problem, setProblem] = useState<Problem | undefined>()
  const [saved, setSaved] = useState<string | undefined>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const { data, error } = await api.PUT("/api/me", { body: { firstname, lastname, locale, image: image.trim() || null } })
    setProblem(problemOf(error))
    setSaved(data?.message)
    if (data) await refresh()
  }
  return (
    <form className="card" onSubmit={submit} aria-labelledby="profile-title" noValidate>
      <h2 id="profile-title">{t("profileDetails")}</h2>
      <ProblemMessage problem={problem} />
      <Field label={t("firstname")} error={fieldError(problem, "firstname")}>
        <input autoComplete="given-name" value={firstname} onChange={(e) => setFirstname(e.target.value)} />
      </Field>
      <Field label={t("lastname")} error={fieldError(problem, "lastname")}>
        <input autoComplete="family-name" value={lastname} onChange={(e) => setLastname(e.target.value)} />
      </Field>
      <Field label={t("locale")} hint={t("localeHint")} error={fieldError(problem, "locale")}>
        <input dir="ltr" value={locale} onChange={(e) => setLocale(e.target.value)} />
      </Field>
      <Field label={t("image")} hint={t("httpsHint")} error={fieldError(problem, "image")}>
        <input type="url" dir="ltr" value={image} onChange={(e) => setImage(e.target.value)} />
      </Field>
      <button type="submit" className="primary">{t("save")}</button>
      {saved && <p role="status">{saved}</p>}
    </form>
  )
}
