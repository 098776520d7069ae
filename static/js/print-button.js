// A button marked data-print prints the page (an inline onclick would need 'unsafe-inline'
// in the Content-Security-Policy).
for (const button of document.querySelectorAll("[data-print]")) {
  button.addEventListener("click", () => window.print());
}
