/**
 * {@code history report --html}: the index page, one page per series and its chart, drawn from the
 * series and their change points.
 */
package dev.wg1bench.history.report;
