/** The terminal (spec B 2.17, 9): window, lorem and snake constants. */
export const TERMINAL_DEFAULT_WIDTH_PX = 700;
export const TERMINAL_DEFAULT_HEIGHT_PX = 400;
/** The terminal (and the T key) only on screens wider than this. */
export const TERMINAL_MIN_SCREEN_PX = 900;
/** How many entered lines the history keeps. */
export const TERMINAL_HISTORY_MAX = 100;

export const LOREM_DEFAULT_PARAGRAPHS = 1;
export const LOREM_DEFAULT_SENTENCES = 4;
export const LOREM_SENTENCES_MIN = 3;
export const LOREM_SENTENCES_MAX = 4;
export const LOREM_WORDS_MIN = 4;
export const LOREM_WORDS_MAX = 16;

export const SNAKE_GRID = 20;
export const SNAKE_TILE_PX = 20;
export const SNAKE_CANVAS_PX = SNAKE_GRID * SNAKE_TILE_PX;
export const SNAKE_FPS = 15;
export const SNAKE_INITIAL_TAIL = 5;
