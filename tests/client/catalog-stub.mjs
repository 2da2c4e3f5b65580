// A stand-in for Django's JavaScript catalog (django/views/i18n.py's script) in Node: the same gettext, ngettext
// and interpolate over a dictionary of translations and a plural rule, for lib/words.mjs's useCatalog.
export function stubCatalog(translations = {}, plural = (n) => n !== 1) {
  const pluralidx = (n) => {
    const v = plural(n);
    return typeof v === "boolean" ? (v ? 1 : 0) : v;
  };
  return {
    gettext(msgid) {
      const value = translations[msgid];
      if (value === undefined) return msgid;
      return typeof value === "string" ? value : value[0];
    },
    ngettext(singular, pluralText, count) {
      const value = translations[singular];
      if (value === undefined) return count === 1 ? singular : pluralText;
      return Array.isArray(value) ? value[pluralidx(count)] : value;
    },
    interpolate(fmt, obj, named) {
      if (named) return fmt.replace(/%\(\w+\)s/g, (match) => String(obj[match.slice(2, -2)]));
      return fmt.replace(/%s/g, () => String(obj.shift()));
    },
  };
}

// A few of the client's messages as locale/it/LC_MESSAGES/djangojs.po translates them.
export const ITALIAN = {
  "%(n)s chip": ["%(n)s fiche", "%(n)s fiches"],
  "%(rank)s of %(suit)s": "%(rank)s di %(suit)s",
  "joker as the %(card)s": "jolly al posto del %(card)s",
  joker: "jolly",
  hearts: "cuori",
  spades: "picche",
  ace: "asso",
  king: "re",
};
