/** undici hides the useful part (ECONNREFUSED, ECONNRESET...) in `cause`; say it in the message. */
export function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const inner = error.cause;
  if (inner instanceof Error) {
    const code = 'code' in inner ? inner.code : undefined;
    return typeof code === 'string' ? `${error.message} (${code})` : `${error.message} (${inner.message})`;
  }
  return error.message;
}
