// War Thunder's local client log (`.game_logs/*.clog`): XOR-encoded text that names the logged-in
// player. Format from reference-implementation.md §8.11. Pure; never throws.

// Every byte is XORed with this key, repeated from the start of the file.
const CLOG_KEY = Uint8Array.from([
  130, 135, 151, 64, 141, 139, 70, 11, 187, 115, 148, 3, 229, 179, 131, 83, 105, 107, 131, 218, 149, 175, 74, 35, 135, 229, 151, 172, 36,
  88, 175, 54, 78, 225, 90, 249, 241, 1, 75, 177, 173, 182, 76, 76, 250, 116, 40, 105, 194, 139, 17, 23, 213, 182, 71, 206, 179, 183, 205,
  85, 254, 249, 193, 36, 255, 174, 144, 46, 73, 108, 78, 9, 146, 129, 78, 103, 188, 107, 156, 222, 177, 15, 104, 186, 139, 128, 68, 5, 135,
  94, 243, 78, 254, 9, 151, 50, 192, 173, 159, 233, 187, 253, 77, 6, 145, 80, 137, 110, 224, 232, 238, 153, 83, 0, 60, 166, 184, 34, 65, 50,
  177, 189, 245, 40, 80, 224, 114, 174,
]);

/** The log's text: the same XOR undoes the encoding. */
export function decodeCombatLog(bytes: Uint8Array): string {
  const decoded = new Uint8Array(bytes.length);
  for (let index = 0; index < bytes.length; index++) decoded[index] = bytes[index]! ^ CLOG_KEY[index % CLOG_KEY.length]!;
  return new TextDecoder('utf-8').decode(decoded);
}

// "12.345 [D]  $07 CassualTux[12345678] successfully passed yuplay authorization, use jwt token": the
// nickname is the word glued to the bracketed account id.
const AUTHORIZATION_LINE = /(\S+)\[\d+\] successfully passed yuplay authorization/;
// A JSON fragment `"nick": "CassualTux"` elsewhere in the log.
const NICK_FIELD = /"nick"\s*:\s*"([^"]+)"/;

/** The logged-in player's nickname: the last authorization in the log wins, then the last `"nick"` field. */
export function nicknameInCombatLog(text: string): string | undefined {
  let authorized: string | undefined;
  let field: string | undefined;
  for (const line of text.split('\n')) {
    authorized = AUTHORIZATION_LINE.exec(line)?.[1] ?? authorized;
    field = NICK_FIELD.exec(line)?.[1]?.trim() || field;
  }
  return authorized ?? field;
}
