/**
 * The limits of a CSV import and the 422 messages (keyed `file`) of a file that breaks one or is
 * not a CSV Wasl can read. A file that breaks any of them stores nothing.
 */
import { type ValidationFailed, invalid } from "../errors.ts"

/** The largest file: 50 MiB. */
export const MAX_IMPORT_BYTES: number = 50 * 1024 * 1024
/** The most data rows (the header not counted). */
export const MAX_IMPORT_ROWS: number = 1_000_000
/** The most columns. */
export const MAX_IMPORT_COLUMNS: number = 200
/** The longest row, in characters (quotes and commas included). */
export const MAX_IMPORT_ROW_CHARS: number = 1024 * 1024

/** A 422 on the `file` field. */
export const badFile = (message: string): ValidationFailed => invalid("file", message)

/** The messages of a file refused at upload. */
export const FileMessage: {
  readonly required: string
  readonly tooLarge: (bytes: number) => string
  readonly notUtf8: string
  readonly hasNul: string
  readonly unstorableName: string
  readonly noHeader: string
  readonly tooManyRows: (rows: number) => string
  readonly tooManyColumns: (columns: number) => string
  readonly failedUpload: string
  readonly notCsv: (reason: string, line: number) => string
  readonly unnamedColumn: (position: number) => string
  readonly unknownColumn: (name: string, kind: string) => string
  readonly duplicateColumn: (name: string) => string
  readonly rowWidth: (line: number, cells: number, columns: number) => string
} = {
  required: "The file field is required.",
  tooLarge: (bytes) => `The file must not be greater than ${bytes / 1024} kilobytes.`,
  notUtf8: "The file must be UTF-8 encoded text.",
  hasNul: "The file must not contain NUL characters.",
  unstorableName: "The file's name must be a valid UTF-8 string.",
  noHeader: "The file must start with a header row naming the properties of its columns.",
  tooManyRows: (rows) => `The file must not have more than ${rows} rows besides its header.`,
  tooManyColumns: (columns) => `The file must not have more than ${columns} columns.`,
  failedUpload: "The file failed to upload.",
  notCsv: (reason: string, line: number) => `The file is not valid CSV: ${reason} (line ${line}).`,
  unnamedColumn: (position: number) => `The file's column ${position} has no name in the header row.`,
  unknownColumn: (name: string, kind: string) => `The file's column ${name} is not a ${kind} property.`,
  duplicateColumn: (name: string) => `The file names the column ${name} more than once.`,
  rowWidth: (line: number, cells: number, columns: number) =>
    `The file's line ${line} has ${cells} cells; its header has ${columns} columns.`
}
