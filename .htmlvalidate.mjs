/**
 * html-validate over the built pages (tests/unit/html-validate.test.ts). The recommended preset, with one
 * rule relaxed and none disabled.
 */
export default {
  extends: ["html-validate:recommended"],
  rules: {
    // Legal section headings are numbered ("1. Market Risk"), so their ids begin with a digit ("1-market-risk")
    // and are the fragment links visitors copy. HTML only forbids empty ids and whitespace; "relaxed" checks
    // exactly that instead of the stricter letter-first style rule.
    "valid-id": ["error", { relaxed: true }],
  },
};
