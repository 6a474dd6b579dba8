/**
 * The built-in properties and groups of every kind. They are constants: the same definitions,
 * with the same `_id`s (property-definition.ts), in every account, listed by the properties
 * endpoints with `account_id: null` and `made_by: null`, never changed or deleted.
 *
 * Types chosen where the API's documentation leaves room:
 * - free texts are `string`, longer prose (`next_steps`, ticket `desc`, product `description`)
 *   `textarea`; contact `gender`, `languages`, `preferred_language`, `relation_stage` and the
 *   sources stay `string` as the API documentation shows them (no closed option lists are given);
 * - `birthdate`, `close_date` and the message times are `datetime` (documented as "timestamp");
 *   invoice `due_date` is a `date`;
 * - `timezone` (documented as a number), money and counts are `number`; `created_by` is a
 *   read-only number; the contact's four received-message times are read-only (Wasl sets them);
 * - derived values: contact `fullname` (read-only string); the linked records' ids (read-only
 *   `multi_select`s without options: sets of ids, which filters then compare as sets): a contact's
 *   `deal_ids`, a company's `contact_ids`, `deal_ids` and `ticket_ids`, the `company_ids` of a
 *   contact, deal or ticket; the link counts (read-only numbers): a ticket's `contacts_count` and
 *   `deals_count`, a company's `contacts_count`, `deals_count` and `tickets_count`. They are
 *   computed when a record is shown (record-shape.ts), never validated or stored from a body;
 * - a deal's and a ticket's `pipeline` (the `_id` of one of the account's pipelines of the kind)
 *   and their stage (`deal_stage`, `ticket_stage`): the stage's options are the stages of the
 *   account's pipelines (pipeline.ts), so the definitions list those of the built-in default
 *   pipeline, and values are checked against the record's pipeline when written
 *   (pipeline-rule.ts), not against these options.
 */
import { LINK_FILTERS } from "./filter-condition.ts"
import { OBJECT_KINDS, type ObjectKind, REQUIRED_ON_CREATE } from "./object-kind.ts"
import {
  BUILTIN_TIMESTAMP,
  builtinGroupId,
  builtinPropertyId,
  type EnumOption,
  type PropertyDefinition,
  type PropertyGroupDefinition,
  toFilterableProperty
} from "./property-definition.ts"
import type { FilterableProperty, PropertyType } from "./property-type.ts"

// ---------------------------------------------------------------------------------------------
// Groups
// ---------------------------------------------------------------------------------------------

/** The internal_name of each kind's built-in group. */
export const BUILTIN_GROUP_NAMES: { readonly [K in ObjectKind]: string } = {
  contact: "contact_information",
  company: "company_information",
  deal: "deal_information",
  ticket: "ticket_information",
  invoice: "invoice_information",
  product: "product_information"
}

const GROUP_LABELS: { readonly [K in ObjectKind]: { readonly en: string; readonly ar: string } } = {
  contact: { en: "Contact information", ar: "معلومات جهة الاتصال" },
  company: { en: "Company information", ar: "معلومات الشركة" },
  deal: { en: "Deal information", ar: "معلومات الصفقة" },
  ticket: { en: "Ticket information", ar: "معلومات التذكرة" },
  invoice: { en: "Invoice information", ar: "معلومات الفاتورة" },
  product: { en: "Product information", ar: "معلومات المنتج" }
}

const makeGroup = (kind: ObjectKind): PropertyGroupDefinition => ({
  _id: builtinGroupId(kind, BUILTIN_GROUP_NAMES[kind]),
  name: { ar: GROUP_LABELS[kind].ar, en: GROUP_LABELS[kind].en },
  desc: null,
  internal_name: BUILTIN_GROUP_NAMES[kind],
  account_id: null,
  made_by: null,
  created_at: BUILTIN_TIMESTAMP,
  updated_at: BUILTIN_TIMESTAMP,
  kind,
  builtin: true
})

/** Each kind's one built-in group. */
export const BUILTIN_GROUPS: { readonly [K in ObjectKind]: PropertyGroupDefinition } = {
  contact: makeGroup("contact"),
  company: makeGroup("company"),
  deal: makeGroup("deal"),
  ticket: makeGroup("ticket"),
  invoice: makeGroup("invoice"),
  product: makeGroup("product")
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

interface Spec {
  readonly name: string
  readonly type: PropertyType
  readonly en: string
  readonly ar: string
  readonly options?: ReadonlyArray<EnumOption>
  /** Set by the service only. */
  readonly readOnly?: true
  /** Computed when shown (implies readOnly). */
  readonly derived?: true
  /** A `number` that is always a whole number (an id or a count). */
  readonly integer?: true
}

const option = (internal_name: string, en: string, ar: string): EnumOption => ({ en, ar, internal_name })

/** The options of a deal's `deal_stage`, from `appointment_scheduled` to `closed_won` / `closed_lost`. */
export const DEAL_STAGE_OPTIONS: ReadonlyArray<EnumOption> = [
  option("appointment_scheduled", "Appointment scheduled", "تم تحديد موعد"),
  option("qualified_to_buy", "Qualified to buy", "مؤهل للشراء"),
  option("presentation_scheduled", "Presentation scheduled", "تم تحديد عرض تقديمي"),
  option("decision_maker_bought_in", "Decision maker bought in", "اقتنع صاحب القرار"),
  option("contract_sent", "Contract sent", "تم إرسال العقد"),
  option("closed_won", "Closed won", "مغلقة - ناجحة"),
  option("closed_lost", "Closed lost", "مغلقة - خاسرة")
]

/** The options of a ticket's `ticket_stage` in the built-in ticket pipeline: new, waiting, in progress, closed. */
export const TICKET_STAGE_OPTIONS: ReadonlyArray<EnumOption> = [
  option("new", "New", "جديدة"),
  option("waiting", "Waiting on contact", "بانتظار العميل"),
  option("in_progress", "In progress", "قيد المعالجة"),
  option("closed", "Closed", "مغلقة")
]

/** The options of a ticket's `category`. */
export const TICKET_CATEGORY_OPTIONS: ReadonlyArray<EnumOption> = [
  option("general_inquiry", "General inquiry", "استفسار عام"),
  option("billing_issue", "Billing issue", "مشكلة في الفوترة"),
  option("technical_issue", "Technical issue", "مشكلة تقنية"),
  option("feature_request", "Feature request", "طلب ميزة")
]

/** The options of a ticket's `source` (`source_manual`, `source_email`, ...). */
export const TICKET_SOURCE_OPTIONS: ReadonlyArray<EnumOption> = [
  option("source_manual", "Manual", "يدوي"),
  option("source_email", "Email", "البريد الإلكتروني"),
  option("source_chat", "Chat", "المحادثة"),
  option("source_phone", "Phone", "الهاتف"),
  option("source_form", "Form", "النموذج")
]

/** The options of an invoice's `status`: draft, sent, paid, void. */
export const INVOICE_STATUS_OPTIONS: ReadonlyArray<EnumOption> = [
  option("draft", "Draft", "مسودة"),
  option("sent", "Sent", "مرسلة"),
  option("paid", "Paid", "مدفوعة"),
  option("void", "Void", "ملغاة")
]

/** The companies a contact, deal or ticket is linked to: a set of company ids. */
const COMPANY_IDS: Spec = {
  name: "company_ids",
  type: "multi_select",
  en: "Companies",
  ar: "الشركات",
  options: [],
  readOnly: true,
  derived: true
}

const SPECS: { readonly [K in ObjectKind]: ReadonlyArray<Spec> } = {
  contact: [
    { name: "firstname", type: "string", en: "First name", ar: "الاسم الأول" },
    { name: "lastname", type: "string", en: "Last name", ar: "اسم العائلة" },
    { name: "middlename", type: "string", en: "Middle name", ar: "الاسم الأوسط" },
    { name: "fullname", type: "string", en: "Full name", ar: "الاسم الكامل", readOnly: true, derived: true },
    { name: "email", type: "email", en: "Email", ar: "البريد الإلكتروني" },
    { name: "phone", type: "phone", en: "Phone number", ar: "رقم الهاتف" },
    { name: "birthdate", type: "datetime", en: "Date of birth", ar: "تاريخ الميلاد" },
    { name: "gender", type: "string", en: "Gender", ar: "الجنس" },
    { name: "languages", type: "string", en: "Languages", ar: "اللغات" },
    { name: "annual_revenue", type: "number", en: "Annual revenue", ar: "الإيرادات السنوية" },
    { name: "preferred_language", type: "string", en: "Preferred language", ar: "اللغة المفضلة" },
    { name: "timezone", type: "number", en: "Time zone", ar: "المنطقة الزمنية" },
    { name: "relation_stage", type: "string", en: "Relationship stage", ar: "مرحلة العلاقة" },
    { name: "original_source", type: "string", en: "Original source", ar: "المصدر الأصلي" },
    {
      name: "original_source_drill_down_1",
      type: "string",
      en: "Original source drill-down 1",
      ar: "تفاصيل المصدر الأصلي 1"
    },
    { name: "created_by", type: "number", en: "Created by", ar: "أنشئ بواسطة", readOnly: true, integer: true },
    { name: "image", type: "url", en: "Image", ar: "الصورة" },
    { name: "whatsapp_number", type: "phone", en: "WhatsApp number", ar: "رقم واتساب" },
    // Set when the contact asked for no more WhatsApp marketing: campaigns skip it.
    { name: "whatsapp_opted_out", type: "boolean", en: "Opted out of WhatsApp", ar: "ألغى الاشتراك في واتساب" },
    {
      name: "first_received_message_at",
      type: "datetime",
      en: "First message received at",
      ar: "تاريخ أول رسالة مستلمة",
      readOnly: true
    },
    {
      name: "last_received_message_at",
      type: "datetime",
      en: "Last message received at",
      ar: "تاريخ آخر رسالة مستلمة",
      readOnly: true
    },
    {
      name: "first_whatsapp_message_received_at",
      type: "datetime",
      en: "First WhatsApp message received at",
      ar: "تاريخ أول رسالة واتساب مستلمة",
      readOnly: true
    },
    {
      name: "last_whatsapp_message_received_at",
      type: "datetime",
      en: "Last WhatsApp message received at",
      ar: "تاريخ آخر رسالة واتساب مستلمة",
      readOnly: true
    },
    { name: "deal_ids", type: "multi_select", en: "Deals", ar: "الصفقات", options: [], readOnly: true, derived: true },
    COMPANY_IDS
  ],
  company: [
    { name: "name", type: "string", en: "Company name", ar: "اسم الشركة" },
    { name: "domain", type: "string", en: "Domain", ar: "النطاق" },
    { name: "industry", type: "string", en: "Industry", ar: "القطاع" },
    { name: "phone", type: "phone", en: "Phone number", ar: "رقم الهاتف" },
    { name: "city", type: "string", en: "City", ar: "المدينة" },
    { name: "country", type: "string", en: "Country", ar: "الدولة" },
    { name: "annual_revenue", type: "number", en: "Annual revenue", ar: "الإيرادات السنوية" },
    { name: "contact_ids", type: "multi_select", en: "Contacts", ar: "جهات الاتصال", options: [], readOnly: true, derived: true },
    { name: "deal_ids", type: "multi_select", en: "Deals", ar: "الصفقات", options: [], readOnly: true, derived: true },
    { name: "ticket_ids", type: "multi_select", en: "Tickets", ar: "التذاكر", options: [], readOnly: true, derived: true },
    { name: "contacts_count", type: "number", en: "Number of contacts", ar: "عدد جهات الاتصال", readOnly: true, derived: true, integer: true },
    { name: "deals_count", type: "number", en: "Number of deals", ar: "عدد الصفقات", readOnly: true, derived: true, integer: true },
    { name: "tickets_count", type: "number", en: "Number of tickets", ar: "عدد التذاكر", readOnly: true, derived: true, integer: true }
  ],
  deal: [
    { name: "deal_name", type: "string", en: "Deal name", ar: "اسم الصفقة" },
    { name: "amount", type: "number", en: "Amount", ar: "المبلغ" },
    { name: "pipeline", type: "string", en: "Pipeline", ar: "المسار" },
    { name: "deal_stage", type: "single_select", en: "Deal stage", ar: "مرحلة الصفقة", options: DEAL_STAGE_OPTIONS },
    { name: "close_date", type: "datetime", en: "Close date", ar: "تاريخ الإغلاق" },
    { name: "forecast_amount", type: "number", en: "Forecast amount", ar: "المبلغ المتوقع" },
    { name: "next_steps", type: "textarea", en: "Next steps", ar: "الخطوات التالية" },
    COMPANY_IDS
  ],
  ticket: [
    { name: "ticket_name", type: "string", en: "Ticket name", ar: "اسم التذكرة" },
    { name: "desc", type: "textarea", en: "Description", ar: "الوصف" },
    { name: "category", type: "single_select", en: "Category", ar: "الفئة", options: TICKET_CATEGORY_OPTIONS },
    { name: "source", type: "single_select", en: "Source", ar: "المصدر", options: TICKET_SOURCE_OPTIONS },
    { name: "pipeline", type: "string", en: "Pipeline", ar: "المسار" },
    { name: "ticket_stage", type: "single_select", en: "Ticket stage", ar: "مرحلة التذكرة", options: TICKET_STAGE_OPTIONS },
    { name: "contacts_count", type: "number", en: "Contacts", ar: "عدد جهات الاتصال", readOnly: true, derived: true, integer: true },
    { name: "deals_count", type: "number", en: "Deals", ar: "عدد الصفقات", readOnly: true, derived: true, integer: true },
    COMPANY_IDS
  ],
  invoice: [
    { name: "invoice_number", type: "string", en: "Invoice number", ar: "رقم الفاتورة" },
    { name: "amount", type: "number", en: "Amount", ar: "المبلغ" },
    { name: "currency", type: "string", en: "Currency", ar: "العملة" },
    { name: "status", type: "single_select", en: "Status", ar: "الحالة", options: INVOICE_STATUS_OPTIONS },
    { name: "due_date", type: "date", en: "Due date", ar: "تاريخ الاستحقاق" }
  ],
  product: [
    { name: "name", type: "string", en: "Product name", ar: "اسم المنتج" },
    { name: "price", type: "number", en: "Price", ar: "السعر" },
    { name: "sku", type: "string", en: "SKU", ar: "رمز المنتج (SKU)" },
    { name: "description", type: "textarea", en: "Description", ar: "الوصف" }
  ]
}

const makeProperty = (kind: ObjectKind, spec: Spec): PropertyDefinition => ({
  _id: builtinPropertyId(kind, spec.name),
  type: spec.type,
  name: { ar: spec.ar, en: spec.en },
  desc: null,
  internal_name: spec.name,
  group_id: BUILTIN_GROUPS[kind]._id,
  ...(spec.options === undefined ? {} : { enum: spec.options }),
  account_id: null,
  made_by: null,
  created_at: BUILTIN_TIMESTAMP,
  updated_at: BUILTIN_TIMESTAMP,
  kind,
  builtin: true,
  readOnly: spec.readOnly === true,
  required: REQUIRED_ON_CREATE[kind].includes(spec.name)
})

const byKind = <A>(f: (kind: ObjectKind) => A): { readonly [K in ObjectKind]: A } =>
  Object.fromEntries(OBJECT_KINDS.map((kind) => [kind, f(kind)])) as { readonly [K in ObjectKind]: A }

/** Each kind's built-in properties, in the order records show them. */
export const BUILTIN_PROPERTIES: { readonly [K in ObjectKind]: ReadonlyArray<PropertyDefinition> } = byKind((kind) =>
  SPECS[kind].map((spec) => makeProperty(kind, spec))
)

/** Built-ins whose value is computed when a record is shown, never stored from a body. */
export const DERIVED_PROPERTIES: { readonly [K in ObjectKind]: ReadonlyArray<string> } = byKind((kind) =>
  SPECS[kind].filter((spec) => spec.derived === true).map((spec) => spec.name)
)

/** Built-in `number` properties whose values are whole numbers: `created_by` and the link counts. */
export const INTEGER_PROPERTIES: { readonly [K in ObjectKind]: ReadonlyArray<string> } = byKind((kind) =>
  SPECS[kind].filter((spec) => spec.integer === true).map((spec) => spec.name)
)

/** The built-in property of a kind with that internal_name, if any. */
export const findBuiltinProperty = (kind: ObjectKind, internalName: string): PropertyDefinition | undefined =>
  BUILTIN_PROPERTIES[kind].find((p) => p.internal_name === internalName)

/**
 * Input names that stand for another property: a deal's `forcast_amount` is
 * accepted as `forecast_amount`, and shown beside it.
 */
export const PROPERTY_SYNONYMS: { readonly [K in ObjectKind]: Readonly<Record<string, string>> } = byKind(
  (kind): Readonly<Record<string, string>> => kind === "deal" ? { forcast_amount: "forecast_amount" } : {}
)

/** The other way round: per property, the input names that stand for it (`forecast_amount` → `forcast_amount`). */
export const SYNONYMS_OF: { readonly [K in ObjectKind]: ReadonlyMap<string, ReadonlyArray<string>> } = byKind((kind) => {
  const synonyms = new Map<string, Array<string>>()
  for (const [synonym, target] of Object.entries(PROPERTY_SYNONYMS[kind])) {
    synonyms.set(target, [...(synonyms.get(target) ?? []), synonym])
  }
  return synonyms
})

/** The keys every record's `properties` object carries besides its property values. */
export const RECORD_SYSTEM_KEYS = ["_id", "account_id", "created_at", "updated_at"] as const

/**
 * The internal_names a custom property of the kind may not take: the built-ins, the record's own
 * keys (they share the `properties` object), the synonyms (`forcast_amount`) and the kind's link
 * filters (a deal's `contact_ids`).
 */
export const RESERVED_INTERNAL_NAMES: { readonly [K in ObjectKind]: ReadonlyArray<string> } = byKind((kind) => [
  ...SPECS[kind].map((spec) => spec.name),
  ...RECORD_SYSTEM_KEYS,
  ...Object.keys(PROPERTY_SYNONYMS[kind]),
  ...LINK_FILTERS[kind]
])

/** Whether a definition among an account's is one of its custom properties of `kind`. */
export const isCustomPropertyOf = (kind: ObjectKind, definition: PropertyDefinition): boolean =>
  definition.kind === kind && !definition.builtin

/** The kinds whose records move through pipelines, and each one's stage property. */
export const STAGE_PROPERTY: { readonly deal: "deal_stage"; readonly ticket: "ticket_stage" } = {
  deal: "deal_stage",
  ticket: "ticket_stage"
}

/** The property holding a deal's or ticket's pipeline (the pipeline's `_id`). */
export const PIPELINE_PROPERTY = "pipeline"

/**
 * Whether a definition is a built-in pipeline stage (`deal_stage`, `ticket_stage`): its options
 * are the stages of the account's pipelines, so a value is any stage name, checked against the
 * record's pipeline when written.
 */
export const isPipelineStage = (definition: PropertyDefinition): boolean =>
  definition.builtin && (definition.kind === "deal" || definition.kind === "ticket") &&
  STAGE_PROPERTY[definition.kind] === definition.internal_name

/** A kind's full list of definitions: its built-ins, then the account's custom properties of it. */
export const definitionsOf = (
  kind: ObjectKind,
  custom: ReadonlyArray<PropertyDefinition>
): ReadonlyArray<PropertyDefinition> => [...BUILTIN_PROPERTIES[kind], ...custom.filter((p) => isCustomPropertyOf(kind, p))]

/**
 * What `complex_filters` may name for a kind: its built-in and custom properties (created_at and
 * updated_at the parser adds itself, and the kind's link filters with `{ kind }`).
 */
export const filterablePropertiesOf = (
  kind: ObjectKind,
  custom: ReadonlyArray<PropertyDefinition>
): ReadonlyArray<FilterableProperty> =>
  definitionsOf(kind, custom).map((definition) =>
    isPipelineStage(definition)
      ? { internal_name: definition.internal_name, type: definition.type }
      : toFilterableProperty(definition)
  )
