// Vitest set-up: load the plan view's chunk once before each test file, as the app
// does when a plan is on its way, so tests that render <App> and make a plan inside
// act() see the plan view in the same turn (React.lazy then resolves from the cache).
await import("./lazyPlan");
export {};
