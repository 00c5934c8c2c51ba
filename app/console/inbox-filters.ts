/** The inbox's filters, in the order its bar shows them (plain data: the page and its tests read it). */
export const INBOX_FILTERS = [
  { name: "all", label: "All", empty: "" },
  { name: "open", label: "Waiting for us", empty: "No request is waiting for an answer." },
  { name: "unassigned", label: "Unassigned", empty: "Every waiting request has someone on it." },
  { name: "mine", label: "Assigned to me", empty: "Nothing is assigned to you." },
  { name: "pending", label: "Waiting for customer", empty: "No answered request is waiting for the customer." },
  { name: "closed", label: "Closed", empty: "No closed requests yet." },
  { name: "messages", label: "Contact messages", empty: "No contact-form messages yet." },
] as const;

export type InboxFilterName = (typeof INBOX_FILTERS)[number]["name"];

export const INBOX_STATUS_LABELS: Record<string, string> = {
  open: "Open",
  pending: "Answered",
  closed: "Closed",
};
