/** The benchmarks' plain-text tables and number formats. */

/** Milliseconds with two decimals. */
export const ms = (value: number): string => value.toFixed(2)

/** Rows of cells as aligned columns: the first left-aligned, the others right-aligned. */
export const table = (rows: ReadonlyArray<ReadonlyArray<string>>, gap = "   "): string => {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  return rows.map((row) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(gap)
  ).join("\n")
}
