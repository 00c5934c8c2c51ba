/**
 * In the desktop shell (ADR 012), new arrivals in the inbox become native notifications (issue 16, ADR 029):
 * while a console page is open, the inbox's summary is asked for once a minute, and when more is unread than
 * before, the shell's bridge (`window.atrium.notify`) shows one notice. In a browser there is no bridge and
 * nothing is polled: the sidebar's count is the notice.
 */
import { useEffect } from "react";

declare global {
  interface Window {
    atrium?: { notify?: (notice: { title: string; body: string }) => unknown };
  }
}

export const INBOX_POLL_MS = 60_000;

export function InboxNotices({ unread }: { unread: number }) {
  useEffect(() => {
    const notify = window.atrium?.notify;
    if (!notify) return;
    let known = unread;
    const timer = window.setInterval(async () => {
      const answer = await fetch("/api/editor/inbox/summary", { headers: { accept: "application/json" } }).catch(
        () => null,
      );
      if (!answer?.ok) return;
      const summary = (await answer.json()) as { unread: number; latest: string | null };
      if (summary.unread > known) {
        const fresh = summary.unread - known;
        void notify({
          title: fresh === 1 ? "New in your inbox" : `${fresh} new in your inbox`,
          body: summary.latest ?? "Open the inbox to read it.",
        });
      }
      known = summary.unread;
    }, INBOX_POLL_MS);
    return () => window.clearInterval(timer);
  }, [unread]);
  return null;
}
