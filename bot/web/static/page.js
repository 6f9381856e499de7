// A game's web page (bot/web/page.py): the slider goes to its move, the zoom buttons zoom the
// board (drag pans it; a phone pinches natively), deadlines in the viewer's time, and, when the
// page shows the latest position, the next move opens as it is made (server-sent events).
"use strict";
(function () {
  const page = document.getElementById("page");
  if (!page) return;
  const lang = page.dataset.lang;
  const go = (move) => {
    const query = new URLSearchParams({ move: String(move), lang: lang });
    window.location.assign("?" + query.toString());
  };
  const slider = document.getElementById("move");
  const shown = document.getElementById("shown");
  if (slider) {
    slider.addEventListener("input", () => { shown.textContent = slider.value + "/" + slider.max; });
    slider.addEventListener("change", () => go(slider.value));
    for (const button of document.querySelectorAll(".scrub .go")) button.hidden = true;
  }
  const board = document.getElementById("board");
  const viewport = document.getElementById("viewport");
  const zoom = document.querySelector(".zoom");
  let scale = 1;
  const zoomTo = (next) => {
    scale = Math.min(6, Math.max(1, next));
    board.style.width = (scale * 100) + "%";
    board.style.maxWidth = "none";
    board.classList.toggle("fit", scale === 1);  // fitted: the whole board within the screen's height
  };
  if (zoom && board && viewport) {
    zoom.hidden = false;
    zoom.addEventListener("click", (event) => {
      const how = event.target.dataset ? event.target.dataset.zoom : null;
      if (how === "in") zoomTo(scale * 1.5);
      else if (how === "out") zoomTo(scale / 1.5);
      else if (how === "fit") zoomTo(1);
    });
    let drag = null;
    viewport.addEventListener("pointerdown", (event) => {
      if (event.pointerType !== "mouse" || scale === 1) return;
      drag = { x: event.clientX, y: event.clientY, left: viewport.scrollLeft, top: viewport.scrollTop };
      viewport.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    viewport.addEventListener("pointermove", (event) => {
      if (!drag) return;
      viewport.scrollLeft = drag.left - (event.clientX - drag.x);
      viewport.scrollTop = drag.top - (event.clientY - drag.y);
    });
    viewport.addEventListener("pointerup", () => { drag = null; });
  }
  for (const time of document.querySelectorAll("time[datetime]")) {
    time.textContent = new Date(time.getAttribute("datetime")).toLocaleString(lang);
  }
  if (window.EventSource) {
    const events = new EventSource(page.dataset.events);
    events.addEventListener("move", (event) => {
      const news = JSON.parse(event.data);
      const move = Number(page.dataset.move);
      const count = Number(page.dataset.count);
      if (move === count && news.count !== count) {
        events.close();
        go(news.count);
      }
    });
    events.addEventListener("gone", () => events.close());
  }
})();
