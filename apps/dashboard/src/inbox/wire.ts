/** The inbox's shapes, as the API's OpenAPI document names them. */
import type { Schemas } from "../api/client"

export type Attachment = Schemas["Attachment"]

export type Message = Schemas["Message"]

export type Conversation = Schemas["Conversation"]
