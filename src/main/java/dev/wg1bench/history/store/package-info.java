/**
 * Where the history's runs are kept and how they come back: the folder and PostgreSQL stores, a
 * result file as a stored run, each run appended once, and the runs read as series.
 */
package dev.wg1bench.history.store;
