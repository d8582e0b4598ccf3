/**
 * Reading a PostgreSQL server log (csvlog, jsonlog, stderr; compressed or not) into records, line
 * by line, with what could not be read counted and named: the first stage of a replay.
 */
package dev.wg1bench.replay.log;
