#!/usr/bin/env node
// Runs the TypeScript sources through tsx, as the other commands of this repository do (`npm run ops`).
require("tsx/cjs");
require("../src/main.ts").main();
