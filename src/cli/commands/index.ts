// Every perpsim command, one line each. A command lives in its own file here exporting
// `register(program)`; it declares its flags (each with its default in the help text) and
// imports its logic lazily inside the action, so `perpsim --help` and `--version` load
// nothing but commander. To add a command: add its file and one line below (`perpsim --help`
// lists commands alphabetically, so the order here does not matter).
export { register as serve } from './serve.ts';
export { register as run } from './run.ts';
export { register as backtest } from './backtest.ts';
export { register as report } from './report.ts';
export { register as scenarios } from './scenarios.ts';
export { register as record } from './record.ts';
export { register as convert } from './convert.ts';
export { register as verify } from './verify.ts';
export { register as demo } from './demo.ts';
export { register as sweep } from './sweep.ts';
export { register as worker } from './worker.ts';
export { register as facts } from './facts.ts';
export { register as impact } from './impact.ts';
export { register as calibrate } from './calibrate.ts';
export { register as live } from './live.ts';
export { register as fork } from './fork.ts';
