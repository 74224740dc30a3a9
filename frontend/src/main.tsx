import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "diff2html/bundles/css/diff2html.min.css";

import "./styles.css";
import { App } from "./App";
import { Store } from "./state/store";
import { wailsBackend } from "./api/backend";

const store = new Store(wailsBackend);
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);
