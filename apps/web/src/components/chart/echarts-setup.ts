import { BarChart, HeatmapChart, LineChart } from 'echarts/charts';
import { DataZoomComponent, GraphicComponent, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

/**
 * The parts of ECharts the monitoring screens draw with, registered once. Imported only through
 * EChart's dynamic import, so it is a chunk of its own that the login page never loads.
 */
echarts.use([
  LineChart, BarChart, HeatmapChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, VisualMapComponent, GraphicComponent,
  MarkLineComponent, CanvasRenderer,
]);

export { echarts };
