/**
 * The media store on files.
 *
 * @module
 */
export * from "./media/media-store-file.ts"
