/* The demo guide's words (demo.js): what each step of the script asks for, general help off the script, and
 * the bot's moves since the player's last one. */
import { t } from "./i18n.js";
import * as W from "./table-words.js";
import { plain } from "./lib/script.mjs";
import { openGuide } from "./demo.js";

// ------------------------------------------------------------------------------------------- words

const shown = (code) => W.shown(code);
const cards = (codes) => (codes || []).map(shown).join(" ");
const playerSteps = (steps) => steps.filter((s) => s.move);

function stepByKey(key) {
  return (openGuide().steps || []).find((s) => s.key === key) || { select: [], move: {} };
}

/** What the joker of a meld move stands for ("JK:5C" -> 5♣). */
function jokerAs(move) {
  const joker = ((move && move.cards) || []).find((c) => c.startsWith("JK:"));
  return joker ? shown(joker.split(":")[1]) : "";
}

/** The instruction of a step: {title, text, hint}. */
function words(step, g, bot) {
  const card = step.select[0] ? shown(step.select[0]) : "";
  switch (step.key) {
    case "draw_stock":
      return {
        title: t("Draw a card"),
        text: t("Every turn starts with a draw. Tap the stock to take its top card: nobody knows what it is."),
        hint: t("Stuck? The stock is the “Stock” button on the green table, above your hand."),
      };
    case "discard":
      return {
        title: t("End your turn with a discard"),
        text: t("You drew the %(card)s. It fits nothing in your hand, so end your turn by discarding it: tap the %(card)s, then Discard.", { card }),
        hint: t("Stuck? Tap the %(card)s in your hand so that it is selected, then the Discard button under your hand.", { card }),
      };
    case "bot_turn":
      return {
        title: t("%(bot)s's turn", { bot }),
        text: t("Now %(bot)s plays: she draws, may meld, and discards. Watch the table.", { bot }),
        hint: t("%(bot)s is thinking: her move comes in a moment.", { bot }),
      };
    case "deep_draw": {
      const partners = stepByKey("meld_set").select.filter((c) => c !== step.move.card);
      const picked = (g.discard_pile || []).slice(step.move.index);
      return {
        title: t("Take a card from deep in the pile"),
        text: t("You may take any card of the discard pile, not only the top one: you then take every card above it too, and you must use the card you chose in this same turn. Take the %(card)s at the bottom of the pile: with your %(partners)s it makes a set. You get %(cards)s.", { card: shown(step.move.card), partners: cards(partners), cards: cards(picked) }),
        hint: t("Stuck? The pile reads from left (bottom) to right (top): tap the %(card)s, the first card on the left.", { card: shown(step.move.card) }),
      };
    }
    case "meld_set":
      return {
        title: t("Meld a set"),
        text: t("A set is three or four cards of the same rank. You must use the %(card)s you chose from the pile: tap %(cards)s, then Meld.", { card: shown(stepByKey("deep_draw").move.card || step.select[0]), cards: cards(step.select) }),
        hint: t("Stuck? Tap %(cards)s in your hand (each one turns highlighted), then the Meld button.", { cards: cards(step.select) }),
      };
    case "meld_run":
      return {
        title: t("Meld a run with the joker"),
        text: t("A run is three or more cards in a row of one suit. The joker (★) stands for any card you need: tap %(cards)s, then Meld. The joker becomes the %(joker)s.", { cards: cards(step.select), joker: jokerAs(step.move) }),
        hint: t("Stuck? Tap %(cards)s in your hand, then the Meld button.", { cards: cards(step.select) }),
      };
    case "lay_off_bot":
      return {
        title: t("Lay off on %(bot)s's meld", { bot }),
        text: t("You may add cards to any meld on the table, even another player's: they score for you. Tap the %(card)s, then Lay off: it joins %(meld)s.", { card, meld: W.meldText(g, step.meld) }),
        hint: t("Stuck? Tap the %(card)s in your hand, then the Lay off button.", { card }),
      };
    case "lay_off_own":
      return {
        title: t("Lay off on your run"),
        text: t("The %(card)s you took with the pile extends your run: tap it, then Lay off.", { card }),
        hint: t("Stuck? Tap the %(card)s in your hand, then the Lay off button.", { card }),
      };
    case "go_out":
      return {
        title: t("Go out"),
        text: t("One card left: discard the %(card)s. With no card left in your hand you go out, and the round ends.", { card }),
        hint: t("Stuck? Tap the %(card)s, then the Discard button.", { card }),
      };
    default:
      return { title: "", text: "", hint: "" };
  }
}

/** General help, for a situation the script does not know (the player did something else). */
function generalHelp(g, me) {
  const turn = g.turn && g.turn.player;
  const note = t("You left the demo's path: that is fine, here is what you can do now.");
  if (turn && turn !== me) {
    return { title: t("%(bot)s's turn", { bot: turn }), text: t("%(bot)s is playing. Watch what she draws, melds and discards.", { bot: turn }), hint: t("%(bot)s is thinking: her move comes in a moment.", { bot: turn }) };
  }
  if (g.phase === "draw") {
    return {
      title: t("Draw a card"),
      text: [note, t("Tap the stock, or a card of the discard pile: a card below the top comes with every card above it, and you must use it this turn.")].join(" "),
      hint: t("Stuck? Open “Every legal move as a list” below your hand: every move you may make now is a button there."),
    };
  }
  const duties = W.obligations(g.obligations);
  return {
    title: t("Meld, lay off, then discard"),
    text: [note, ...duties, t("Meld sets (three or four of a rank) and runs (three or more in a row of one suit), lay cards off on any meld, then end your turn by discarding a card.")].join(" "),
    hint: t("Stuck? Open “Every legal move as a list” below your hand: every move you may make now is a button there."),
  };
}

/** The bot's moves since the player's last one, in words. */
function botNews(moves, g, bot) {
  if (!moves.length) return null;
  const parts = moves.map((m) => {
    switch (m.type) {
      case "draw":
        return m.source === "stock" ? t("drew from the stock") : t("took the %(card)s from the pile", { card: shown(m.card) });
      case "meld":
        return t("melded %(cards)s", { cards: cards(m.cards || (m.melds || []).flat()) });
      case "lay_off":
        return t("laid %(cards)s off", { cards: cards(m.cards) });
      case "discard":
        return t("discarded the %(card)s", { card: shown(m.card) });
      default:
        return W.label(m, g);
    }
  });
  const lines = [t("%(bot)s %(moves)s.", { bot, moves: parts.join(", ") })];
  const melded = moves.filter((m) => m.type === "meld");
  if (melded.length) {
    const meld = melded[melded.length - 1].cards || [];
    const ranks = new Set(meld.map((c) => plain(c).slice(0, -1)));
    lines.push(ranks.size === 1 && meld[0] && meld[0][0] === "K"
      ? t("%(bot)s melded three kings: you may lay off on it.", { bot })
      : t("%(bot)s melded: you may lay off on her meld too.", { bot }));
  }
  return lines.join(" ");
}

export { playerSteps, words, generalHelp, botNews };
