/** An error of the app core that the user can act on: its code and message go to the renderer as they are. */
export class CoreError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly fields?: { field: string; message: string }[],
  ) {
    super(message);
    this.name = 'CoreError';
  }
}
