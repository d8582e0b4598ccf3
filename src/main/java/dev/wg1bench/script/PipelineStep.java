package dev.wg1bench.script;

import java.util.List;

/**
 * The commands of a pipeline up to its {@code \syncpipeline} or {@code \endpipeline}. The executor
 * runs the body's {@code \set}/{@code \sleep} in order and takes each statement's parameter values
 * as they are when the statement comes, then sends every statement as one {@code jdbcSql} (the
 * statements joined by semicolons, which pgjdbc sends back to back and closes with one Sync), so no
 * statement waits for the result of the one before. As in libpq's pipeline mode, an error skips the
 * rest of the batch and, outside an explicit transaction, rolls the batch back.
 *
 * @param line line of the {@code \startpipeline} (or of the {@code \syncpipeline} opening this
 *     part)
 * @param body the SQL, {@code \set} and {@code \sleep} steps in script order (no jumps)
 * @param jdbcSql the statements for one {@code prepareStatement}, or null when there are none
 * @param statements number of SQL statements in the body
 * @param closeLine line of the {@code \syncpipeline} or {@code \endpipeline} closing this part
 * @param opens whether this part starts at a {@code \startpipeline} (else at a {@code
 *     \syncpipeline}, which is the line closing the part before)
 */
public record PipelineStep(
    int line, List<Step> body, String jdbcSql, int statements, int closeLine, boolean opens)
    implements Step {}
