/**
 * HTML escaping for text and attribute values (double- or single-quoted). Strategy names,
 * parameters and symbols are user input, so every piece of text on the page goes through this.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
