// WispError: every failure of the API carries a `code` and a message naming the culprit.
export class WispError extends Error {
  /** @param {string} message @param {string} code */
  constructor(message, code) {
    super(message);
    this.name = 'WispError';
    this.code = code;
  }
}
