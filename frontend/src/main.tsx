import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "./styles.css";
import { App } from "./App";
import { Store } from "./state/store";
import { wailsBackend } from "./api/backend";
import { traceStart } from "./startTrace";

const root = document.getElementById("root")!;
traceStart(root);
const store = new Store(wailsBackend);
createRoot(root).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);
