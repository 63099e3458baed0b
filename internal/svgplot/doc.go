// Package svgplot draws counts over time as step curves in a
// self-contained SVG: a title, panels stacked on one time axis, each with
// its labelled axes and legend. It is written for pages and files that
// must show a picture without JavaScript (spindle sim --plot; a driver's
// web pages), so the output is plain SVG 1.1 made with encoding/xml, and
// every series is a <path class="series" data-series="ID"> that a test
// or a script can find by its id.
//
// Series are bounded: a Recorder keeps an endless stream of samples in a
// fixed number of points, doubling its time buckets as the stream grows
// and keeping each bucket's lowest, highest and last value, so peaks and
// troughs survive exactly and the curve's level between samples stays
// right. A chart draws at most MaxPoints per series, downsampling longer
// ones the same way.
//
// It imports nothing of Spindle's.
package svgplot
