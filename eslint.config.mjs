// The JavaScript linter's rules for the page's and the workers' code (web/, tools/*.mjs):
// ESLint's recommended rules, with the globals of each place the code runs.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["dist/", "node_modules/", ".cache/", "lab/out/", "e2e/artifacts/", ".venv*/"] },
  js.configs.recommended,
  {
    files: ["web/runtime/**/*.mjs", "web/online/**/*.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["web/runtime/*-worker.mjs", "web/runtime/python.mjs"],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    files: ["web/runtime/sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    files: ["web/boot.js", "web/boot-guard.js"],
    languageOptions: { ecmaVersion: 2020, sourceType: "script", globals: { ...globals.browser } },
  },
  {
    files: ["lab/browser/page/*.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.browser, ...globals.worker } },
  },
  {
    files: ["tools/**/*.mjs", "tests/**/*.mjs", "lab/**/*.mjs", "e2e/**/*.mjs"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.node } },
  },
  {
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
];
