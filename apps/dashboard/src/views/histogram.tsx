import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** A time series of counts drawn as bars by uPlot; its numbers are also given as text for screen readers. */
export function Histogram({
  series,
  label,
  unit = 'events',
}: {
  series: [number[], number[]];
  label: string;
  /** What is counted, for the vertical axis and the text alternative. */
  unit?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const plot = new uPlot(
      {
        width: Math.min(960, box.current.clientWidth || 960),
        height: 200,
        series: [
          {},
          {
            label,
            stroke: '#0b5cad',
            fill: 'rgba(11, 92, 173, 0.35)',
            paths: uPlot.paths.bars!({ size: [0.8, 40] }),
            points: { show: false },
          },
        ],
        axes: [{}, { label: unit }],
        legend: { show: false },
      },
      series,
      box.current,
    );
    return () => plot.destroy();
  }, [series, label, unit]);
  const total = series[1].reduce((sum, count) => sum + count, 0);
  return (
    <figure>
      <div ref={box} role="img" aria-label={`${label}: ${total} ${unit} in ${series[0].length} intervals`} />
      <figcaption class="muted">{label}</figcaption>
    </figure>
  );
}
