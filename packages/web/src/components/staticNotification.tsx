import { ConfigProvider } from 'antd';
import notification from 'antd/es/notification';
import { StaticHolderRoot } from './AntdRoot';

/**
 * antd's static notification API, rendered with the app's theme and motion setting (loaded on
 * demand by the request client's notification bridge, so antd stays out of its bundle).
 */
ConfigProvider.config({ holderRender: (children) => <StaticHolderRoot>{children}</StaticHolderRoot> });

export default notification;
