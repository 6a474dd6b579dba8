/**
 * A new template on one of the account's numbers: its header, body with variables `{{1}}`…, footer
 * and buttons, an example value per variable (for Meta's review), and a live preview with the
 * examples filled in. The API's messages show on their fields.
 */
import { useState, type FormEvent } from "react"
import { api } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { navigate } from "../router"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { useLoad } from "../ui/useLoad"
import { TemplatePreview } from "./TemplatePreview"
import { variableCount } from "./variables"

const CATEGORIES = ["UTILITY", "MARKETING"] as const
const BUTTON_TYPES = ["QUICK_REPLY", "URL", "PHONE_NUMBER"] as const
type ButtonType = typeof BUTTON_TYPES[number]

interface Button {
  readonly type: ButtonType
  readonly text: string
  /** The URL of a URL button, the number of a PHONE_NUMBER one. */
  readonly target: string
}

/** One example per variable of `text`, kept as they were typed when the count changes. */
const ExampleFields = ({ text, values, onChange, label, problem, field }: {
  readonly text: string
  readonly values: ReadonlyArray<string>
  readonly onChange: (values: ReadonlyArray<string>) => void
  readonly label: (number: number) => string
  readonly problem: Problem | undefined
  readonly field: string
}) => (
  <>
    {Array.from({ length: variableCount(text) }, (_, index) => (
      <Field key={index} label={label(index + 1)} error={fieldError(problem, `${field}.${index}`)}>
        <input value={values[index] ?? ""} onChange={(e) => onChange(Object.assign([...values], { [index]: e.target.value }))} />
      </Field>
    ))}
  </>
)

export const TemplateForm = () => {
  const { t } = useI18n()
  const numbers = useLoad(async () => (await api.GET("/api/platforms")).data?.data ?? [], [])
  const [name, setName] = useState("")
  const [language, setLanguage] = useState("en")
  const [platform, setPlatform] = useState("")
  const [templateName, setTemplateName] = useState("")
  const [category, setCategory] = useState<typeof CATEGORIES[number]>("UTILITY")
  const [header, setHeader] = useState("")
  const [body, setBody] = useState("")
  const [footer, setFooter] = useState("")
  const [buttons, setButtons] = useState<ReadonlyArray<Button>>([])
  const [bodyExamples, setBodyExamples] = useState<ReadonlyArray<string>>([])
  const [headerExamples, setHeaderExamples] = useState<ReadonlyArray<string>>([])
  const [problem, setProblem] = useState<Problem | undefined>()
  const platformId = platform || String(numbers.data?.[0]?.id ?? "")
  const examplesOf = (text: string, values: ReadonlyArray<string>) =>
    Array.from({ length: variableCount(text) }, (_, index) => values[index] ?? "")
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const examples = { body: examplesOf(body, bodyExamples), header: examplesOf(header, headerExamples) }
    const template = {
      name: templateName,
      category,
      body,
      ...(header === "" ? {} : { header: { format: "TEXT", text: header } }),
      ...(footer === "" ? {} : { footer }),
      ...(buttons.length === 0 ? {} : {
        buttons: buttons.map(({ type, text, target }) =>
          type === "URL" ? { type, text, url: target } : type === "PHONE_NUMBER" ? { type, text, phone_number: target } : { type, text })
      }),
      ...(examples.body.length + examples.header.length === 0 ? {} : { examples })
    }
    const { data, error } = await api.POST("/api/broadcasts", { body: { name, language, platform_id: Number(platformId), template } })
    setProblem(problemOf(error))
    if (data) navigate("/templates")
  }
  const replaceButton = (index: number, button: Button | undefined) =>
    setButtons((all) => all.flatMap((old, i) => (i !== index ? [old] : button === undefined ? [] : [button])))
  const error = (field: string) => fieldError(problem, field)
  return (
    <section>
      <header className="page-header">
        <h1>{t("newTemplate")}</h1>
      </header>
      <div className="template-editor">
        <form className="card" onSubmit={submit} aria-label={t("newTemplate")} noValidate>
          <ProblemMessage problem={problem} />
          <Field label={t("name")} error={error("name")}>
            <input value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label={t("sendingNumber")} error={error("platform_id")}>
            <select value={platformId} onChange={(e) => setPlatform(e.target.value)}>
              {(numbers.data ?? []).map((number) => <option key={number.id} value={number.id}>{number.name} ({number.display_phone_number})</option>)}
            </select>
          </Field>
          <Field label={t("templateName")} hint={t("templateNameHint")} error={error("template.name")}>
            <input dir="ltr" value={templateName} onChange={(e) => setTemplateName(e.target.value)} />
          </Field>
          <Field label={t("templateLanguage")} hint={t("templateLanguageHint")} error={error("language")}>
            <input dir="ltr" value={language} onChange={(e) => setLanguage(e.target.value)} />
          </Field>
          <Field label={t("category")} error={error("template.category")}>
            <select value={category} onChange={(e) => setCategory(e.target.value as typeof CATEGORIES[number])}>
              {CATEGORIES.map((value) => <option key={value} value={value}>{t(`category_${value}`)}</option>)}
            </select>
          </Field>
          <Field label={t("templateHeader")} hint={t("templateHeaderHint", { variable: "{{1}}" })} error={error("template.header.text") ?? error("template.header")}>
            <input value={header} onChange={(e) => setHeader(e.target.value)} />
          </Field>
          <ExampleFields text={header} values={headerExamples} onChange={setHeaderExamples} problem={problem} field="template.examples.header"
            label={(number) => t("headerExample", { number })} />
          <Field label={t("templateBody")} hint={t("templateBodyHint", { first: "{{1}}", second: "{{2}}" })} error={error("template.body")}>
            <textarea value={body} onChange={(e) => setBody(e.target.value)} />
          </Field>
          <ExampleFields text={body} values={bodyExamples} onChange={setBodyExamples} problem={problem} field="template.examples.body"
            label={(number) => t("bodyExample", { number })} />
          <Field label={t("templateFooter")} error={error("template.footer")}>
            <input value={footer} onChange={(e) => setFooter(e.target.value)} />
          </Field>
          <fieldset>
            <legend>{t("templateButtons")}</legend>
            {error("template.buttons") && <p className="problem" role="alert">{error("template.buttons")}</p>}
            {buttons.map((button, index) => (
              <fieldset className="condition" key={index}>
                <legend className="visually-hidden">{t("buttonNumber", { number: index + 1 })}</legend>
                <select aria-label={t("buttonType")} value={button.type} onChange={(e) => replaceButton(index, { ...button, type: e.target.value as ButtonType })}>
                  {BUTTON_TYPES.map((type) => <option key={type} value={type}>{t(`button_${type}`)}</option>)}
                </select>
                <Field label={t("buttonText")} error={error(`template.buttons.${index}.text`)}>
                  <input value={button.text} onChange={(e) => replaceButton(index, { ...button, text: e.target.value })} />
                </Field>
                {button.type !== "QUICK_REPLY" && (
                  <Field label={t(button.type === "URL" ? "buttonUrl" : "buttonPhone")} error={error(`template.buttons.${index}.${button.type === "URL" ? "url" : "phone_number"}`)}>
                    <input dir="ltr" value={button.target} onChange={(e) => replaceButton(index, { ...button, target: e.target.value })} />
                  </Field>
                )}
                <button type="button" onClick={() => replaceButton(index, undefined)}>{t("remove")}</button>
              </fieldset>
            ))}
            <button type="button" onClick={() => setButtons([...buttons, { type: "QUICK_REPLY", text: "", target: "" }])}>{t("addButton")}</button>
          </fieldset>
          <button type="submit" className="primary">{t("create")}</button>
          <button type="button" onClick={() => navigate("/templates")}>{t("cancel")}</button>
        </form>
        <TemplatePreview header={header} body={body} footer={footer} buttons={buttons} examples={{ header: headerExamples, body: bodyExamples }} />
      </div>
    </section>
  )
}
