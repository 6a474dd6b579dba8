/**
 * The texts of a record's history timeline, in English and Arabic. The timeline adds them
 * (`addMessages`) when its module loads, as the later-loaded pages add `team-messages`.
 */
export const historyEn = {
  history: "History",
  noHistory: "No changes recorded yet.",
  olderChanges: "Older changes",
  historyChange: "{property}: {from} → {to}",
  historySet: "{property} set to {to}",
  historyCleared: "{property} cleared (was {from})",
  historyBy: "by {who}",
  historyYou: "you",
  historyUser: "user #{id}",
  historyNobody: "Wasl",
  historyEmpty: "(empty)",
  source_api: "edit",
  source_batch: "batch",
  source_import: "import",
  source_merge: "merge",
  source_restore: "restore",
  source_system: "automatic"
} as const

export const historyAr: Readonly<Record<keyof typeof historyEn, string>> = {
  history: "السجل",
  noHistory: "لا توجد تغييرات مسجّلة بعد.",
  olderChanges: "تغييرات أقدم",
  historyChange: "{property}: {from} ← {to}",
  historySet: "عُيّن {property} إلى {to}",
  historyCleared: "أُفرغ {property} (كان {from})",
  historyBy: "بواسطة {who}",
  historyYou: "أنت",
  historyUser: "المستخدم رقم {id}",
  historyNobody: "وصل",
  historyEmpty: "(فارغ)",
  source_api: "تعديل",
  source_batch: "دفعة",
  source_import: "استيراد",
  source_merge: "دمج",
  source_restore: "استعادة",
  source_system: "تلقائي"
}
