/**
 * The host conformance suite: checks any running Tether host against the protocol, through
 * its host record. `tether conformance --project DIR` is its command-line front.
 */
export { CHECKS } from './manifest.js';
export { REQUIREMENTS, type Requirement, type RequirementId } from './requirements.js';
export { runConformance, selectChecks, hasKit, type RunOptions } from './runner.js';
export { formatResult, formatSummary, formatHeader, formatDuration, summarize } from './report.js';
export { findHost, HostTarget } from './target.js';
export { CheckFailure, CheckSkipped, HostNotFoundError, HostUnreachableError, KIT_MISSING_REASON } from './errors.js';
export { KIT } from './kit.js';
export type { Check, CheckContext, CheckResult, CheckStatus, ConformanceReport } from './types.js';
