/**
 * A search result as engines show it (address, title as the link, two lines of description): what the
 * operator's settings will look like, before any engine has crawled them. Not a promise: engines may rewrite both.
 */
export function SearchSnippet({
  url,
  title,
  description,
  headingLevel = 3,
}: {
  url: string;
  title: string;
  description: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  // Engines show some 60 characters of a title and 160 of a description; past that they cut.
  const shownTitle = title.length > 60 ? `${title.slice(0, 59).trimEnd()}…` : title;
  const shownDescription = description.length > 160 ? `${description.slice(0, 159).trimEnd()}…` : description;
  return (
    <div className="snippet">
      <div className="snippet-url">{url.replace(/^https?:\/\//, "").replace(/\//g, " › ")}</div>
      <Heading className="snippet-title" style={{ margin: "0.15rem 0", fontWeight: 400 }}>
        {shownTitle}
      </Heading>
      <p className="snippet-description">{shownDescription || "No description: engines pick words from the page."}</p>
    </div>
  );
}
