/**
 * The texts of the deals and tickets board (a column per stage of a pipeline), in English and
 * Arabic. They come with the board (`lazyPage` adds them), not in the first load.
 */
export const boardEn = {
  pipeline: "Pipeline",
  stageCount: "{count} record(s)",
  stageAmount: "Total {amount}",
  stageAmountAtLeast: "Total at least {amount} (the first {counted} records)",
  boardColumn: "{stage}: {count} record(s)",
  boardMoreRecords: "and {count} more",
  boardCardHint: "Drag the card to another stage, or press the left and right arrow keys to move it.",
  boardMoved: "{name} moved to {stage}.",
  boardEmpty: "No records in this stage."
} as const

export const boardAr: Readonly<Record<keyof typeof boardEn, string>> = {
  pipeline: "المسار",
  stageCount: "{count} سجل",
  stageAmount: "المجموع {amount}",
  stageAmountAtLeast: "المجموع {amount} على الأقل (أول {counted} سجل)",
  boardColumn: "{stage}: {count} سجل",
  boardMoreRecords: "و{count} غيرها",
  boardCardHint: "اسحب البطاقة إلى مرحلة أخرى، أو اضغط مفتاحي السهم الأيمن والأيسر لنقلها.",
  boardMoved: "نُقل {name} إلى {stage}.",
  boardEmpty: "لا سجلات في هذه المرحلة."
}
