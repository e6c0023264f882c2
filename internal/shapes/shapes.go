// Package shapes makes inputs that are small on disk but have a shape a reader, the store or a
// report could pay for more than linearly (issue 24, findings 8–13): deep call trees, calls that
// tie, many threads, gzip bombs, very long names, samples that go back in time, and files cut
// inside their last line. Each shape has one generator, sized by n, so a test can make it at two
// sizes and check that the cost of importing and reporting it grows no faster than n
// (app/cli's TestBatteryGrowth and BenchmarkShapes), and a reader's own test can reproduce the
// finding at one size.
//
// The generators write into an io.Writer, through the project's own writers where a format has
// one, so what they make is a valid file of its format unless the shape is that it is not.
package shapes
