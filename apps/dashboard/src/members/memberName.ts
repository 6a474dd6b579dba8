/** How a member is named in lists: their full name, or their e-mail while they have none. */
export const memberName = (user: { readonly firstname: string; readonly lastname: string; readonly email: string }): string =>
  `${user.firstname} ${user.lastname}`.trim() || user.email
