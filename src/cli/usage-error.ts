/** A bad command line or input the user can fix: printed as one line, exit code 2. */
export class UsageError extends Error {}
