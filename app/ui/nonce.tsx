import { createContext, useContext } from "react";

/** The CSP nonce of a console document; empty on public site documents and in the browser. */
export const NonceContext = createContext("");
export const useNonce = () => useContext(NonceContext);
