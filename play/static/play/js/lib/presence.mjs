/* Who is connected at a table, from two sources that do not arrive in order: the game view (a snapshot read at
 * some moment) and the socket's presence messages (in order: each is the newest). While the socket is live the
 * last message wins, even over a view that was read before it and answered after it.
 * Pure: no DOM; Node imports it too (table.js). */

/** Set each player's `connected` to what `word` (username -> connected, the socket's last message) says, in
 * place. Players the message does not name keep the view's word. Answers whether anything changed. */
export function overlay(players, word) {
  let changed = false;
  for (const player of players || []) {
    if (word && player.username in word && player.connected !== word[player.username]) {
      player.connected = word[player.username];
      changed = true;
    }
  }
  return changed;
}
