/** The API's message for a failed action, announced to screen readers. */
import type { Problem } from "../api/errors"

export const ProblemMessage = ({ problem }: { readonly problem: Problem | undefined }) =>
  problem ? <p className="problem" role="alert">{problem.message}</p> : null
