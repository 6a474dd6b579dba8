/** Exact message texts (spec §2.1, decisions §1). */
export const CREATED = "Entity was created Successfully"
export const MODIFIED = "Entity was modified Successfully"
export const DELETED = "Entity was deleted Successfully"

export const WEBHOOK_CREATED = "Entity was created successfully."
export const WEBHOOK_MODIFIED = "Entity was modified successfully"
export const WEBHOOK_DELETED = "Entity was deleted successfully."
