#!/usr/bin/env node
// Runs the TypeScript command line through tsx: no build step for the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../main/cli/main.ts');
process.exitCode = await main(process.argv);
// Nothing should keep the process alive once the command is done; if a stray handle does, end it.
setTimeout(() => process.exit(), 2000).unref();
