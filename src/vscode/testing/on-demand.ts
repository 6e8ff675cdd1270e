// What trigger tests need only when asked: Draft Trigger Tests, Improve Description (with its
// report document) and the Routing Report webview. Bundled apart (dist/extension-trigger-tools.js)
// and imported with import() on first use; the Testing view's controller stays in the extension.

export { draftTriggerTests } from './draft-trigger-tests';
export { improveDescription, TuneReportDocument } from './improve-description';
export { RoutingReport } from './routing-report';
