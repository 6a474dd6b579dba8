/**
 * Notes on records: the note, its repository and use-cases.
 *
 * @module
 */
export * from "./notes/note.ts"
export * from "./notes/note-repository.ts"
export * from "./use-cases/notes.ts"
